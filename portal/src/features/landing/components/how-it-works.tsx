import { PRICING } from '@scn/proto';
import '../landing.css';

const STEPS = [
  {
    title: 'Two user types',
    icon: '01',
    text: 'Clients use network services; node operators run the servers that provide them and earn SSL, the network’s internal credit, for doing so.',
    points: [
      'Client: connect through operators’ servers',
      'Node Operator: provide capacity and earn income',
    ],
  },
  {
    title: 'Node operations',
    icon: '02',
    text: 'Operators set up a server with a guided script, add it to the network and keep it healthy. Reliable servers are listed and rewarded.',
    points: ['Guided setup on a Linux VPS', 'Health and reliability monitored continuously'],
  },
  {
    title: 'Client access',
    icon: '03',
    text: `Clients pick servers from the market, subscribe for ${PRICING.monthlyPerServerSsl} SSL per server per month and connect with a connection string or QR code.`,
    points: [
      'Choose servers by country, ping and reliability',
      'Import one link into your client app',
    ],
  },
];

export function HowItWorks() {
  return (
    <section className="section" aria-labelledby="how-title">
      <div className="container">
        <div className="section__header">
          <p className="eyebrow">The network</p>
          <h2 id="how-title">How It Works</h2>
          <p className="section__lead">
            One marketplace, two sides: people who need an open connection and people who provide
            it.
          </p>
        </div>
        <div className="grid grid--3">
          {STEPS.map((step) => (
            <article key={step.title} className="card card--feature">
              <span className="card__step" aria-hidden="true">
                {step.icon}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
              <ul className="check-list">
                {step.points.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </div>
    </section>
  );
}
