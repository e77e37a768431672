/** Reads a ZIP package (manifest.json + the main script) without trusting its sizes or paths. */
export interface PluginPackageReader {
  /** Answers the files by name; a bomb, a path escaping the package or a broken archive is a ValidationError. */
  read(zip: Buffer): Promise<Map<string, string>>;
}
