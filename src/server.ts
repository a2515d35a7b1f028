import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { type App, type AppOptions, buildApp } from './http/app.js';
import { startWorkers } from './jobs/workers.js';
import { createServices, type Services } from './services.js';

export interface RunningServer {
  app: App;
  services: Services;
  /** Where the server listens, e.g. http://127.0.0.1:8080. */
  url: string;
  close(): Promise<void>;
}

/** Builds the services and the HTTP app and listens; used by `retouch serve` and by the tests. */
export async function startServer(config: Config, options: AppOptions = {}): Promise<RunningServer> {
  const services = await createServices(config);
  const app = await buildApp(services, options);
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await services.close();
    throw err;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  if (services.embeddedStorage && !config.publicUrl) services.embeddedStorage.blobs.publicUrl = url;
  const workers = config.runJobs ? await startWorkers(services, app.log) : null;
  return {
    app,
    services,
    url,
    close: async () => {
      await app.close();
      await workers?.stop();
      await services.close();
    },
  };
}
