"use client";
import { DialogFooter, DialogCancel, ModalDialog } from "@/components/ui/dialog";
import { QUEUE_SHORTCUTS } from "./queue-shortcut-keys";
import styles from "./queue.module.css";

/** The `?` dialog: the queue's keyboard shortcuts. */
export function ShortcutsHelpDialog({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      pending={false}
      title="Keyboard shortcuts"
      description="For the focused request in the queue; not while typing in a field."
      testId="shortcuts-dialog"
    >
      <dl className={styles.shortcuts}>
        {QUEUE_SHORTCUTS.map(({ keys, does }) => (
          <div key={does}>
            <dt>
              {keys.map((key, index) => (
                <span key={key}>
                  {index > 0 ? " or " : null}
                  <kbd>{key}</kbd>
                </span>
              ))}
            </dt>
            <dd>{does}</dd>
          </div>
        ))}
      </dl>
      <DialogFooter>
        <DialogCancel pending={false}>Close</DialogCancel>
      </DialogFooter>
    </ModalDialog>
  );
}
