/** A multipart body as a browser sends one file (the imports' `file` field unless told), for `inject`. */
export function multipartFile(fileName: string, content: Buffer, field = 'file') {
  const boundary = '----flotte' + Math.random().toString(16).slice(2);
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export type MultipartPart = { name: string; content: Buffer; field?: string };

/** A multipart body of several files (the documents' `files` field unless told); each file name is written as given (quotes and CRLF included). */
export function multipartFiles(parts: MultipartPart[]) {
  const boundary = '----flotte' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field ?? 'files'}"; filename="${part.name}"\r\nContent-Type: application/pdf\r\n\r\n`),
      part.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
