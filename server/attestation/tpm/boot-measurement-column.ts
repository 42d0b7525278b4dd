import "server-only";
import type { BootMeasurementJson } from "@/lib/join-requests/join-request-json";

// SPEC I2: the PCR values a request's join quoted and the boot state they
// matched, read with the request in every statement that returns requests, as
// its EK certificate facts are. `id` resolves to the outer request's: the
// measurements table has no `id`.
export const BOOT_MEASUREMENT_COLUMN = `(SELECT jsonb_build_object('pcrs', pcrs, 'bootState', boot_state)
    FROM join_request_boot_measurements WHERE request_id = id) AS "bootMeasurement"`;

/** A request row read with JOIN_REQUEST_COLUMNS carries it (rows written through Prisma's model do not: read as null). */
export interface WithBootMeasurement {
  bootMeasurement?: BootMeasurementJson;
}

export const bootMeasurementJsonOf = (row: WithBootMeasurement): BootMeasurementJson => row.bootMeasurement ?? null;
