import { randomBytes } from 'node:crypto';

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body for app.inject: text fields, files, then trailing fields. */
export function multipartBody(fields: Record<string, string>, files: FilePart[] = [], trailing: Record<string, string> = {}) {
  const boundary = `----kruhtest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  const addFields = (entries: Record<string, string>) => {
    for (const [name, value] of Object.entries(entries)) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    }
  };
  addFields(fields);
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  addFields(trailing);
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
