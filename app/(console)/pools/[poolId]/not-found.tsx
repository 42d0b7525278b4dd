import { NavLink } from "@/components/ui/nav-link";

// The same page whether the pool does not exist or is not the user's: the
// console must not tell the two apart (SPEC B2).
export default function PoolNotFound() {
  return (
    <div className="card" style={{ padding: "2rem", textAlign: "center" }} data-testid="no-access">
      <h1>Not found, or no access</h1>
      <p className="muted">
        There is no such pool or request, or your account has no role on it. Ask an administrator of its tenant for access.
      </p>
      <NavLink href="/" className="button">
        Back to your pools
      </NavLink>
    </div>
  );
}
