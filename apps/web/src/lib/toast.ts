/**
 * Toasts for the whole app. Import `toast` from here, never from
 * 'react-toastify' directly: the app mounts the container of the *unstyled*
 * build (its stylesheet is bundled, nothing is injected at run time, so a
 * strict CSP stays possible), and the two builds keep separate toast queues,
 * so a toast sent through the other build would never show.
 */
export { toast } from 'react-toastify/unstyled';
