import type { StatementEvents } from '../../db/statement-timing.js';
import { ExplainedError } from '../../lib/explained-error.js';

/**
 * Whether the operator asked for traces, read from the standard OpenTelemetry variables before
 * anything else is loaded (server.ts), and the tracing running in this process. Kept apart from
 * tracing.ts so that a server without traces never loads the SDK.
 */

export const TRACING_ENDPOINT_VARIABLES = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] as const;

export type TracingRequest = Readonly<{
  serviceName: string;
  protocol: 'http/protobuf' | 'http/json';
}>;

/** A variable the traces cannot use: the server does not start (server.ts prints it). */
export class TracingConfigError extends ExplainedError {}

/** null when traces are off: no endpoint, or OTEL_SDK_DISABLED=true. */
export function tracingRequested(env: NodeJS.ProcessEnv): TracingRequest | null {
  if (!TRACING_ENDPOINT_VARIABLES.some((name) => env[name]?.trim())) return null;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new TracingConfigError(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} n'est pas pris en charge : utilisez http/protobuf (par défaut) ou http/json.`,
    );
  }
  return { serviceName: env.OTEL_SERVICE_NAME?.trim() || 'flotteassur', protocol };
}

export type Tracing = {
  /** Subscribes the statements of a database: one span each (app.ts, when tracing is on). */
  traceStatements(statements: StatementEvents): () => void;
  /** Exports what is pending and stops (a process's end). */
  shutdown(): Promise<void>;
};

let current: Tracing | null = null;

/** The tracing started in this process, or null (off, the default). */
export function activeTracing(): Tracing | null {
  return current;
}

/** platform/tracing/tracing.ts only. */
export function setActiveTracing(tracing: Tracing | null) {
  current = tracing;
}
