/** One sample of the Prometheus text format: `name{a="x",b="y"} value`. */
export type Sample = { name: string; labels: Record<string, string>; value: number };

/** The samples of a Prometheus text exposition (comments left out). */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the sample named `name` whose labels include `labels` (0 when there is none: a counter not yet moved). */
export function valueOf(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/**
 * The distinct series of the application's metrics (`flotte_…`): a histogram's buckets, sum and
 * count are one series per label set.
 */
export function seriesOf(samples: readonly Sample[], prefix = 'flotte_'): Set<string> {
  const series = new Set<string>();
  for (const sample of samples) {
    if (!sample.name.startsWith(prefix)) continue;
    const name = sample.name.replace(/_(bucket|sum|count)$/, '');
    const { le: _le, ...labels } = sample.labels;
    series.add(`${name}${JSON.stringify(labels)}`);
  }
  return series;
}
