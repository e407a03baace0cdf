import { SetMetadata } from '@nestjs/common';

/**
 * Metadata key read by an app's credential guard. It lives here, not in an auth library, so that
 * service-kit's own operational routes can be marked without depending on any one service's auth.
 */
export const PUBLIC_ROUTE = 'platform:public-route';

/** Marks a controller or handler as reachable without credentials. */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
