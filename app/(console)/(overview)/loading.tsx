// Shown while the overview counts the pending requests. (Only here: under a
// loading boundary a page answers 200 before it knows it is not found, and the
// pool pages must answer 404.)
export default function Loading() {
  return (
    <div aria-busy="true" aria-label="Loading">
      <span className="skeleton" style={{ width: "12rem", height: "1.6rem", marginBottom: "1rem" }} />
      {Array.from({ length: 4 }, (_, index) => (
        <span key={index} className="skeleton" style={{ width: "100%", height: "3rem", marginBottom: "0.6rem" }} />
      ))}
    </div>
  );
}
