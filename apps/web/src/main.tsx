import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { App } from './app';
import { initAnalytics } from './lib/analytics';
import './index.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// After the first render: analytics never delays the page (and is off without a key).
initAnalytics();
