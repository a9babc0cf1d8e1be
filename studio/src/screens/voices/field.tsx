import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/**
 * A label tied to its control with `for`: the control's name is the label's text alone (a label
 * wrapped around a select or a filled text box would add the control's value to its name).
 */
export function Field({ label, class: className, children }: { label: string; class?: string; children: (id: string) => ComponentChildren }) {
  const id = useId();
  return (
    <div class={className ? `field ${className}` : 'field'}>
      <label for={id}>{label}</label>
      {children(id)}
    </div>
  );
}
