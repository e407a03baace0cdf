import { tracingRequested } from './tracing-switch';

/** The app's name, set by tools/build.mjs: the default `service.name` of its traces. */
declare const PLATFORM_SERVICE: string;

/** A bundle beside this one in dist/apps/<app>/, by a path the bundler leaves alone. */
const beside = (file: string) => new URL(file, import.meta.url).href;

/**
 * Entry point of every built app (`dist/apps/<app>/main.js`). Instrumentation patches modules as
 * they are loaded, so when traces are asked for, the SDK (`tracing.js`) starts before the app
 * (`app.js`) and the packages it imports are loaded; otherwise the SDK is never loaded at all.
 */
if (tracingRequested(process.env)) {
  const { startTracing } = (await import(beside('./tracing.js'))) as typeof import('./start-tracing');
  await startTracing(PLATFORM_SERVICE);
}
await import(beside('./app.js'));
