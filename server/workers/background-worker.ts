/** A loop running in the background of a process. */
export interface BackgroundWorker {
  /** Stops claiming new work, lets the work in flight finish (and be recorded), then resolves. */
  stop(): Promise<void>;
}
