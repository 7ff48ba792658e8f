// `npm run dev`: the API (tsx watch, port 3000) and Vite (port 5173, proxying
// /api to the API) side by side. Ctrl-C stops both.
import { spawn } from 'node:child_process';

const serverPort = process.env.PORT ?? '3000';
const children = [
  spawn('npm', ['run', 'dev', '-w', 'apps/server'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: serverPort, NODE_ENV: 'development' },
  }),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], {
    stdio: 'inherit',
    env: { ...process.env, SERVER_PORT: serverPort },
  }),
];

let isStopping = false;
const stop = (code) => {
  if (isStopping) return;
  isStopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
};
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
