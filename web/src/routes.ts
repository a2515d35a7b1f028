import { useEffect, useState } from 'preact/hooks';
import type { Flow } from '../../src/client/records.js';

/**
 * The app's pages. The server answers these paths with index.html (src/http/web-app.ts,
 * PAGES: `/new` and `/projects/*`), so a reload or a bookmark opens the same page.
 */
export type Route = { page: 'projects' } | { page: 'new' } | { page: 'project'; flow: Flow; uuid: string; photo?: string } | { page: 'copilot'; flow: Flow; uuid: string; photo: string } | { page: 'not-found' };

export function parseRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '') return { page: 'projects' };
  if (pathname === '/new') return { page: 'new' };
  const m = /^\/projects\/(i2i|regular)\/([^/]+)(?:\/(photos|copilot)\/([^/]+))?\/?$/.exec(pathname);
  if (!m) return { page: 'not-found' };
  const [, flow, uuid, kind, photo] = m as unknown as [string, Flow, string, string | undefined, string | undefined];
  if (kind === 'copilot') return { page: 'copilot', flow, uuid, photo: decodeURIComponent(photo!) };
  return { page: 'project', flow, uuid, ...(photo ? { photo: decodeURIComponent(photo) } : {}) };
}

export const paths = {
  projects: () => '/',
  newProject: () => '/new',
  project: (flow: Flow, uuid: string) => `/projects/${flow}/${uuid}`,
  photo: (flow: Flow, uuid: string, photo: string) => `/projects/${flow}/${uuid}/photos/${encodeURIComponent(photo)}`,
  copilot: (flow: Flow, uuid: string, photo: string) => `/projects/${flow}/${uuid}/copilot/${encodeURIComponent(photo)}`,
};

const CHANGE = 'retouch:navigate';

export function navigate(path: string, { replace = false } = {}): void {
  if (path === location.pathname) return;
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  window.dispatchEvent(new Event(CHANGE));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname));
    window.addEventListener('popstate', update);
    window.addEventListener(CHANGE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(CHANGE, update);
    };
  }, []);
  return route;
}
