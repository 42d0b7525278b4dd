export default function HomePage() {
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", maxWidth: 720, margin: "4rem auto", lineHeight: 1.5 }}>
      <h1>Better Compute — join requests</h1>
      <p>
        The approval queue for machines whose join an attestor deferred. The published API is served at{" "}
        <code>POST /api/compute/joinRequests/list|approve|reject</code> and <code>POST /api/compute/events/list</code>.
      </p>
    </main>
  );
}
