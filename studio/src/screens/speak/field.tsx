import './field.css';
import type { ComponentChildren } from 'preact';

/**
 * A label above its control, as siblings: a label that wrapped the control would lend the
 * control's current value to its accessible name ("Voice Amy (rhvoice)" instead of "Voice").
 */
export function Field({ id, label, children, class: className }: { id: string; label: ComponentChildren; children: ComponentChildren; class?: string }) {
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}
