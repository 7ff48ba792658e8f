import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
// The unstyled build does not inject a <style> element at run time; the
// stylesheet below is bundled with ours, which keeps a strict CSP possible.
import { Bounce, ToastContainer, type ToastTransitionProps } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';

import { createQueryClient } from '@/lib/react-query';
import { useTheme } from '@/lib/theme';

export type AppProviderProps = {
  children: ReactNode;
  /** Tests pass their own client; the app creates one per page load. */
  queryClient?: QueryClient;
};

export function AppProvider({ children, queryClient }: AppProviderProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      {children}
      <AppToasts />
    </QueryClientProvider>
  );
}

/** Toasts with the spec's options: top-right, 3000 ms, close on click, pause on hover and focus loss, draggable, progress bar, close button, icon. */
function AppToasts() {
  const { theme } = useTheme();
  return (
    <ToastContainer
      position="top-right"
      autoClose={3000}
      closeOnClick
      pauseOnHover
      pauseOnFocusLoss
      draggable
      hideProgressBar={false}
      closeButton
      // `icon` left at its default: the built-in icon for each toast type.
      newestOnTop
      theme={theme}
      transition={SettlingBounce}
    />
  );
}

/**
 * react-toastify's default entrance, except that its end starts the timer only
 * if nothing pauses the toast: the library starts it unconditionally, so a
 * toast hovered during its entrance, or shown while the window is in the
 * background, would run out under the pointer or unseen. Leaving the toast or
 * coming back to the window starts it, as for any pause.
 */
export function SettlingBounce(props: ToastTransitionProps) {
  const playUnlessPaused = () => {
    if (document.hasFocus() && !props.nodeRef.current?.matches(':hover')) props.playToast();
  };
  return <Bounce {...props} playToast={playUnlessPaused} />;
}
