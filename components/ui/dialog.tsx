"use client";
import * as Dialog from "@radix-ui/react-dialog";
import { useRef, type ReactNode } from "react";
import styles from "./dialog.module.css";

/**
 * A modal dialog (Radix: focus trap, Esc, labelled by its title) that cannot
 * be closed while its request is pending, by Esc, a click outside or Cancel
 * (documenso's rule): the user sees how their action ended.
 */
export function ModalDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pending: boolean;
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  const { pending } = props;
  // Opened from our own buttons rather than a Dialog.Trigger, so Radix has no
  // trigger to give focus back to: remember what had it, and return it there.
  const opener = useRef<HTMLElement | null>(null);
  const block = (event: Event) => {
    if (pending) event.preventDefault();
  };
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => (pending && !open ? undefined : props.onOpenChange(open))}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          onEscapeKeyDown={block}
          onPointerDownOutside={block}
          onInteractOutside={block}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
          aria-busy={pending}
          data-testid={props.testId}
        >
          <Dialog.Title className={styles.title}>{props.title}</Dialog.Title>
          <Dialog.Description className={styles.description}>{props.description}</Dialog.Description>
          {props.children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return <div className={styles.footer}>{children}</div>;
}

/** Cancel: closes the dialog, except while its request is pending. */
export function DialogCancel({ pending, children = "Cancel" }: { pending: boolean; children?: ReactNode }) {
  return (
    <Dialog.Close asChild>
      <button type="button" className="button" disabled={pending}>
        {children}
      </button>
    </Dialog.Close>
  );
}

/** A settings dialog's footer: Cancel, and Save (saying "Saving…" while it saves). */
export function DialogSaveFooter({ pending }: { pending: boolean }) {
  return (
    <DialogFooter>
      <DialogCancel pending={pending} />
      <button type="submit" className="button button-primary" disabled={pending}>
        {pending ? "Saving…" : "Save"}
      </button>
    </DialogFooter>
  );
}
