/** Fetches a marketplace package from its `downloadUrl`; private, loopback and metadata addresses are refused. */
export interface PackageDownloader {
  /** The package's bytes; more than `maxBytes` is refused without reading the rest (ValidationError). */
  download(url: string, maxBytes: number): Promise<Buffer>;
}
