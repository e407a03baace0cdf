import { useLocation } from 'react-router';

/** The token of a link the console mailed or handed out, from its fragment, which browsers never send to a server. */
export function useLinkToken(): string {
  const location = useLocation();
  return new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
}
