/** What a served app does first on SIGTERM, before Nest's shutdown hooks close its dependencies. */
const drains = new WeakMap<object, () => Promise<void>>();

export function registerDrain(app: object, drain: () => Promise<void>): void {
  drains.set(app, drain);
}

export async function drain(app: object): Promise<void> {
  await drains.get(app)?.();
}
