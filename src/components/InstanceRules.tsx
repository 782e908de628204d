import './InstanceRules.css';

/** The instance's rules, numbered, as the about page and the sign-up form show them. */
export function InstanceRules({ rules, id }: { rules: readonly string[]; id?: string }) {
  return (
    <ol className="instance-rules" id={id}>
      {rules.map((rule, index) => (
        <li key={index}>{rule}</li>
      ))}
    </ol>
  );
}
