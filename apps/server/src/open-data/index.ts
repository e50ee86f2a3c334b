// One open-data service per process's leaderboard: it observes the live index (population-counts.ts), so every app,
// direct-read path and MCP tool built over the same runtime shares it instead of each keeping its own counts.
import type { Runtime } from '../runtime';
import { OpenDataService } from './service';

const services = new WeakMap<object, OpenDataService>();

export function openDataOf(runtime: Pick<Runtime, 'leaderboard' | 'db' | 'config' | 'clock'>): OpenDataService {
  let service = services.get(runtime.leaderboard);
  if (!service) {
    service = new OpenDataService(runtime.leaderboard, runtime.db, {
      publicUrl: runtime.config.publicUrl,
      clock: runtime.clock,
      downloads: runtime.config.dataset,
    });
    services.set(runtime.leaderboard, service);
  }
  return service;
}

export { openDataHandlers } from './handlers';
