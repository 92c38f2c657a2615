import { baseUrl, DEMO_PASSWORD } from './browser.js';

// The e2e files share one server and its demo seed: a test that changes demo data puts it back
// in afterEach (so even a failing test leaves the seed as it found it), through the API.

const CSRF = { 'x-requested-with': 'flotteassur' };

type Row = { uuid: string } & Record<string, unknown>;

/** Runs `task` over `items`, ten at a time: quick, without queueing hundreds of requests at once. */
export async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>, size = 10): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(task))));
  return results;
}

/** The API as a demo user: a login, then calls with its bearer token. */
export async function apiAs(email: string) {
  const login = await fetch(`${baseUrl()}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...CSRF },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`connexion de ${email} refusée (${login.status})`);
  const { tokens, user } = (await login.json()) as { tokens: { access_token: string }; user: { uuid: string; currentOrganizationUser: { uuid: string } | null } };
  const headers = { authorization: `Bearer ${tokens.access_token}`, accept: 'application/json', ...CSRF };

  async function call(method: string, path: string, body?: unknown) {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path} : ${response.status} ${await response.text()}`);
    return response.status === 204 ? undefined : ((await response.json()) as unknown);
  }

  return {
    user,
    call,
    /** Sends files as a browser does (multipart `files`) to an upload route: `/api/sinister/{uuid}/documents`… */
    async upload(path: string, files: readonly { name: string; type: string; content: Uint8Array }[]): Promise<Row[]> {
      const form = new FormData();
      for (const file of files) form.append('files', new Blob([new Uint8Array(file.content)], { type: file.type }), file.name);
      const response = await fetch(`${baseUrl()}${path}`, { method: 'POST', headers, body: form });
      if (!response.ok) throw new Error(`POST ${path} : ${response.status} ${await response.text()}`);
      return ((await response.json()) as { data: Row[] }).data;
    },
    /**
     * Deletes for good, archived ones included, the records of a register (`/api/driver`…) that
     * `search` finds and `match` picks: what a test created, whether it got to delete it or not.
     * Up to 1 000 of them, ten at a time.
     */
    async purge(path: string, search: string, match: (row: Row) => boolean) {
      const query = new URLSearchParams({ search, withArchived: 'true', limit: '1000' });
      const page = (await call('GET', `${path}?${query.toString()}`)) as { data: Row[] };
      await inBatches(page.data.filter(match), (row) => call('DELETE', `${path}/${row.uuid}/hard`));
    },
  };
}
