import { NavLink } from "./nav-link";
import listPage from "./list-page.module.css";

/** The link under a list to its next page (the cursor is in `href`), centred; `className="button"` draws it as a button. */
export function NextPageLink({ href, className }: { href: string; className?: string }) {
  return (
    <div className={listPage.more}>
      <NavLink className={className} href={href}>
        Next page →
      </NavLink>
    </div>
  );
}
