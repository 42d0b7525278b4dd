/** Another active node of the same pool with the same system UUID: the same machine admitted again? */
export interface MachineTwin {
  id: string;
  hostname: string;
}
