import { describe, expect, it } from '@jest/globals';
import {
  TRANSACTION_DESCRIPTION_CODES,
  type TransactionDescription,
  type TransactionDescriptionCode,
} from '@scn/proto';
import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../locales/wallet/en.json';
import fa from '../../locales/wallet/fa.json';
import ru from '../../locales/wallet/ru.json';
import zh from '../../locales/wallet/zh.json';
import { INTL_TAGS, LOCALES, type Locale } from '../../lib/i18n/locale';
import { transactionDescription } from './transaction-description';

const CATALOGUES: Record<Locale, { transactionDescriptions: Record<string, string> }> = {
  en,
  fa,
  ru,
  zh,
};

/** A description of every code, as the control plane writes them. */
const SAMPLES: { [C in TransactionDescriptionCode]: Extract<TransactionDescription, { code: C }> } =
  {
    share_reward: { code: 'share_reward', values: { platform: 'instagram', primeTime: true } },
    monthly_reward: { code: 'monthly_reward', values: { period: '2026-10' } },
    staking_income: { code: 'staking_income', values: { period: '2026-10' } },
    rewards_released: { code: 'rewards_released', values: {} },
    rewards_forfeited: { code: 'rewards_forfeited', values: { reason: 'banned' } },
    staked: { code: 'staked', values: {} },
    unstaked: { code: 'unstaked', values: {} },
    sol_deposit: { code: 'sol_deposit', values: { sol: '0.5', sslPerSol: 5143 } },
    token_deposit: { code: 'token_deposit', values: { currency: 'USDC', amount: '2.5' } },
    promotion: { code: 'promotion', values: { plan: 'standard', server: 'Frankfurt 1' } },
    subscription_purchased: { code: 'subscription_purchased', values: { servers: 3 } },
    subscription_activated: { code: 'subscription_activated', values: {} },
    subscription_renewed: { code: 'subscription_renewed', values: {} },
    billing_changed: { code: 'billing_changed', values: { cycle: 'hourly' } },
    subscription_reward: { code: 'subscription_reward', values: {} },
    refund_server_dropped: {
      code: 'refund_server_dropped',
      values: { server: 'Frankfurt 1', reason: 'banned' },
    },
    server_replacement: {
      code: 'server_replacement',
      values: { blocked: 'Frankfurt 1', replacement: 'Paris 2' },
    },
    withdrawal: { code: 'withdrawal', values: { destination: 'So1ana1111' } },
    withdrawal_returned: { code: 'withdrawal_returned', values: {} },
  };

/** What the row shows, as i18next-icu formats it (tags kept as text; <Trans> makes them elements). */
function render(sample: TransactionDescription, locale: Locale): string {
  const message = transactionDescription(
    { descriptionCode: sample.code, descriptionValues: sample.values },
    locale,
  );
  if (!message) throw new Error(`${sample.code}: no message`);
  const source = CATALOGUES[locale].transactionDescriptions[message.code];
  if (!source) throw new Error(`${locale}: no message for ${message.code}`);
  return String(
    new IntlMessageFormat(source, INTL_TAGS[locale], undefined, { ignoreTag: true }).format(
      message.values,
    ),
  );
}

/** Each code in each language: [code, locale, text it shows]. */
const EXPECTED: Record<Locale, Partial<Record<TransactionDescriptionCode, string>>> = {
  en: {
    share_reward: 'Share reward (Instagram, prime time)',
    monthly_reward: 'Monthly reward for October 2026',
    sol_deposit: 'SOL deposit: 0.5 SOL at 5,143 SSL/SOL',
    token_deposit: 'USDC deposit: 2.5 USDC at $1 = 28.571428 SSL',
    promotion: 'Standard promotion of <bdi>Frankfurt 1</bdi>',
    subscription_purchased: 'Subscription to 3 servers',
    billing_changed: 'Billing changed to hourly',
    refund_server_dropped: 'Refund: <bdi>Frankfurt 1</bdi> was dropped (banned)',
    server_replacement:
      'Server replacement: <bdi>Paris 2</bdi> took over from <bdi>Frankfurt 1</bdi>, blocked in a client\u2019s network',
    withdrawal: 'Withdrawal to <bdi>So1ana1111</bdi>',
  },
  fa: {
    share_reward: 'پاداش اشتراک‌گذاری در Instagram (ساعت اوج)',
    monthly_reward: 'پاداش ماهانهٔ اکتبر ۲۰۲۶',
    sol_deposit: 'واریز SOL: ۰٫۵ SOL با نرخ ۵٬۱۴۳ SSL برای هر SOL',
    token_deposit: 'واریز USDC: ۲٫۵ USDC با نرخ هر ۱ دلار = ۲۸٫۵۷۱۴۲۸ SSL',
    subscription_purchased: 'اشتراک ۳ سرور',
    refund_server_dropped: 'بازپرداخت: سرور <bdi>Frankfurt 1</bdi> از اشتراک حذف شد (مسدود شد)',
    server_replacement:
      'جایگزینی سرور: <bdi>Paris 2</bdi> جای <bdi>Frankfurt 1</bdi> را گرفت که در شبکهٔ یک مشتری مسدود بود',
  },
  ru: {
    monthly_reward: 'Ежемесячная награда за октябрь 2026 г.',
    sol_deposit: 'Пополнение в SOL: 0,5 SOL по курсу 5 143 SSL за SOL',
    token_deposit: 'Пополнение в USDC: 2,5 USDC по курсу $1 = 28,571428 SSL',
    subscription_purchased: 'Подписка на 3 сервера',
    billing_changed: 'Тарификация изменена на почасовую',
  },
  zh: {
    monthly_reward: '2026年10月月度奖励',
    sol_deposit: 'SOL 充值：0.5 SOL，汇率 5,143 SSL/SOL',
    subscription_purchased: '订阅 3 台服务器',
    withdrawal: '提现至 <bdi>So1ana1111</bdi>',
  },
};

describe('transaction descriptions', () => {
  it('should have a sample for every code', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...TRANSACTION_DESCRIPTION_CODES].sort());
  });

  for (const locale of LOCALES) {
    for (const code of TRANSACTION_DESCRIPTION_CODES) {
      it(`should word ${code} in ${locale} with every value filled in`, () => {
        const text = render(SAMPLES[code], locale);
        expect(text).not.toMatch(/[{}]/);
        expect(text.trim()).not.toBe('');
        // Names and addresses stay as given, isolated left to right inside any language.
        for (const name of ['Frankfurt 1', 'So1ana1111']) {
          if (JSON.stringify(SAMPLES[code].values).includes(name))
            expect(text).toContain(`<bdi>${name}</bdi>`);
        }
        const expected = EXPECTED[locale][code];
        if (expected) expect(text.replace(/[\u00a0\u202f]/g, ' ')).toBe(expected);
        // No English left in another language beyond the allowed names and units.
        if (locale !== 'en') {
          const latin = text
            .replace(/<\/?bdi>|Frankfurt 1|Paris 2|So1ana1111/g, '')
            .match(/[A-Za-z]+/g);
          for (const word of latin ?? [])
            expect(['SOL', 'SSL', 'USDC', 'USDT', 'X', 'Instagram', 'Telegram']).toContain(word);
        }
      });
    }
  }

  it('should word a plural by the language’s rules (Russian many)', () => {
    const five: TransactionDescription = {
      code: 'subscription_purchased',
      values: { servers: 5 },
    };
    expect(render(five, 'ru')).toBe('Подписка на 5 серверов');
    expect(render({ ...five, values: { servers: 1 } }, 'en')).toBe('Subscription to 1 server');
  });

  it('should say which reason and which platform it was', () => {
    expect(render({ code: 'rewards_forfeited', values: { reason: 'deleted' } }, 'en')).toBe(
      'Frozen rewards returned to the pool: the server was deleted',
    );
    expect(
      render({ code: 'share_reward', values: { platform: 'twitter', primeTime: false } }, 'en'),
    ).toBe('Share reward (X)');
    expect(
      render({ code: 'refund_server_dropped', values: { server: 'A', reason: 'hidden' } }, 'ru'),
    ).toBe('Возврат: сервер <bdi>A</bdi> исключён из подписки (скрыт: надёжность ниже 95%)');
  });

  it('should leave a row without a code, or with an unknown one, to its English description', () => {
    expect(transactionDescription({ descriptionCode: null, descriptionValues: null }, 'fa')).toBe(
      null,
    );
    expect(transactionDescription({}, 'fa')).toBe(null);
    expect(
      transactionDescription({ descriptionCode: 'from_the_future', descriptionValues: {} }, 'fa'),
    ).toBe(null);
  });
});
