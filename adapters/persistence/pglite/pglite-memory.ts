/**
 * What the embedded PostgreSQL may hold in memory (docs/operations.md "Memory"). WebAssembly memory only
 * grows: whatever PostgreSQL once touched stays resident until the process ends, so these bound the
 * process's size, not only a moment of it.
 */
export interface PGliteMemorySettings {
  /** shared_buffers (MB): PostgreSQL's page cache, in the WebAssembly heap (PostgreSQL's default: 128). */
  sharedBuffersMb: number;
  /** work_mem (MB): per sort or hash of a statement before it spills to temporary files. */
  workMemMb: number;
  /** maintenance_work_mem (MB): CREATE INDEX (an HNSW graph is built in it), VACUUM (PostgreSQL's default: 64). */
  maintenanceWorkMemMb: number;
}

/**
 * The platform's defaults: an opened database takes 164 MB of resident memory with them against 291 MB with
 * PostgreSQL's own, and an HNSW build no longer grows the heap (docs/benchmarks/memory.md). The tables' pages that do not fit in shared_buffers come from the operating
 * system's file cache, which the kernel gives back under pressure; the WebAssembly heap it never can.
 */
export const PGLITE_MEMORY_DEFAULTS: PGliteMemorySettings = { sharedBuffersMb: 16, workMemMb: 4, maintenanceWorkMemMb: 16 };
