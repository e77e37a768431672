/** A document that has just become `ready`: what listeners (plugins' `knowledge:documentReady`) are told. */
export interface ReadyDocument {
  id: string;
  applicationId: string;
  fileName: string;
  chunkCount: number;
  status: 'ready';
}

/** Told when a knowledge document becomes ready; must not throw or delay ingestion. */
export interface DocumentReadyListener {
  documentReady(document: ReadyDocument): void;
}
