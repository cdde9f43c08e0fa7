import { exactSsl, sslAmount } from '../earnings-format';

/** An amount of SSL rounded for reading; its exact micro-SSL in `value` and the title. */
export function Amount({ micro, testId }: { micro: string; testId?: string }) {
  return (
    <data value={micro} title={exactSsl(micro)} data-testid={testId}>
      {sslAmount(micro)} SSL
    </data>
  );
}
