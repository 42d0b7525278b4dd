/** The header of a table's last column of row controls: named for screen readers, blank on screen. */
export function ActionsColumnHeader() {
  return (
    <th scope="col">
      <span className="visually-hidden">Actions</span>
    </th>
  );
}
