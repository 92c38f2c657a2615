import { vi } from 'vitest';

/**
 * XMLHttpRequest as lib/api-upload uses it: reports 50 % then 100 %, answers `reply` (or what it
 * computes from the URL). Returns the forms sent, with `urls` the URLs posted to.
 */
type FakeAnswer = { status: number; body: unknown; headers?: Record<string, string> };

export function fakeXhr(reply: FakeAnswer | ((url: string) => FakeAnswer)) {
  const sent: FormData[] = [];
  const urls: string[] = [];
  /** The request headers of each upload, in order. */
  const requestHeaders: Record<string, string>[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    withCredentials = false;
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    abort() {
      this.onabort?.();
    }
    url = '';
    open(_method: string, url: string) {
      this.url = url;
      urls.push(url);
      requestHeaders.push({});
    }
    setRequestHeader(name: string, value: string) {
      requestHeaders[requestHeaders.length - 1]![name.toLowerCase()] = value;
    }
    private headers: Record<string, string> = {};
    getResponseHeader(name: string): string | null {
      return this.headers[name.toLowerCase()] ?? null;
    }
    send(form: FormData) {
      sent.push(form);
      const answer = typeof reply === 'function' ? reply(this.url) : reply;
      setTimeout(() => this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 }), 0);
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
        this.status = answer.status;
        this.headers = Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      }, 300);
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return Object.assign(sent, { urls, requestHeaders });
}

