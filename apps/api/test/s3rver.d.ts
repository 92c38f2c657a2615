// s3rver ships no types: the part the tests use.
declare module 's3rver' {
  type Options = {
    address?: string;
    port?: number;
    directory: string;
    silent?: boolean;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: (string | Buffer)[] }[];
  };
  export default class S3rver {
    constructor(options: Options);
    run(): Promise<{ address: string; port: number; family: string }>;
    close(): Promise<void>;
  }
}
