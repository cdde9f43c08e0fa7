import { useT } from '../../../lib/i18n/i18n';
import '../landing.css';
/**
 * The hero's animated node diagram: the network core, the operators' nodes around it and the
 * clients at the edge. Motion is CSS only (landing.css) and stops under prefers-reduced-motion.
 */
const CENTER = { x: 240, y: 210 };
const NODE_RADIUS = 128;
const CLIENT_RADIUS = 196;
const NODE_COUNT = 6;

interface Point {
  x: number;
  y: number;
}

function onCircle(radius: number, angleDeg: number): Point {
  const angle = (angleDeg * Math.PI) / 180;
  return { x: CENTER.x + radius * Math.cos(angle), y: CENTER.y + radius * Math.sin(angle) };
}

const NODES = Array.from({ length: NODE_COUNT }, (_, index) =>
  onCircle(NODE_RADIUS, -90 + (360 / NODE_COUNT) * index),
);
const CLIENTS = NODES.flatMap((_, index) => {
  const base = -90 + (360 / NODE_COUNT) * index;
  return [onCircle(CLIENT_RADIUS, base - 13), onCircle(CLIENT_RADIUS, base + 13)].map((point) => ({
    point,
    node: index,
  }));
});

const fixed = (value: number) => value.toFixed(1);

export function NodeDiagram() {
  const { t } = useT();
  return (
    <svg
      className="node-diagram"
      viewBox="0 0 480 420"
      role="img"
      aria-labelledby="node-diagram-title"
    >
      <title id="node-diagram-title">{t('landing.hero.diagram')}</title>
      <defs>
        <radialGradient id="nd-core" cx="50%" cy="50%" r="50%">
          <stop offset="0" stopColor="var(--color-primary)" stopOpacity="0.55" />
          <stop offset="1" stopColor="var(--color-primary)" stopOpacity="0" />
        </radialGradient>
      </defs>

      <circle
        className="node-diagram__halo"
        cx={CENTER.x}
        cy={CENTER.y}
        r="92"
        fill="url(#nd-core)"
      />
      <circle
        className="node-diagram__orbit"
        cx={CENTER.x}
        cy={CENTER.y}
        r={NODE_RADIUS}
        fill="none"
      />
      <circle className="node-diagram__ring" cx={CENTER.x} cy={CENTER.y} r="58" fill="none" />

      {CLIENTS.map(({ point, node }, index) => {
        const target = NODES[node] ?? CENTER;
        return (
          <line
            key={`client-link-${index}`}
            className="node-diagram__client-link"
            x1={fixed(point.x)}
            y1={fixed(point.y)}
            x2={fixed(target.x)}
            y2={fixed(target.y)}
          />
        );
      })}

      {NODES.map((node, index) => (
        <g key={`link-${index}`}>
          <line
            className="node-diagram__link"
            x1={CENTER.x}
            y1={CENTER.y}
            x2={fixed(node.x)}
            y2={fixed(node.y)}
          />
          <line
            className="node-diagram__flow"
            style={{ animationDelay: `${index * -0.4}s` }}
            x1={fixed(node.x)}
            y1={fixed(node.y)}
            x2={CENTER.x}
            y2={CENTER.y}
          />
        </g>
      ))}

      {CLIENTS.map(({ point }, index) => (
        <circle
          key={`client-${index}`}
          className="node-diagram__client"
          style={{ animationDelay: `${(index % 5) * 0.5}s` }}
          cx={fixed(point.x)}
          cy={fixed(point.y)}
          r="5"
        />
      ))}

      {NODES.map((node, index) => (
        <g
          key={`node-${index}`}
          className="node-diagram__node"
          transform={`translate(${fixed(node.x)} ${fixed(node.y)})`}
        >
          <circle
            className="node-diagram__node-pulse"
            style={{ animationDelay: `${index * 0.45}s` }}
            r="17"
          />
          <circle className="node-diagram__node-body" r="17" />
          <rect
            x="-7.5"
            y="-7"
            width="15"
            height="5.5"
            rx="1.2"
            className="node-diagram__node-icon"
          />
          <rect
            x="-7.5"
            y="1.5"
            width="15"
            height="5.5"
            rx="1.2"
            className="node-diagram__node-icon"
          />
        </g>
      ))}

      <g className="node-diagram__core" transform={`translate(${CENTER.x} ${CENTER.y})`}>
        <circle r="38" className="node-diagram__core-body" />
        <path
          d="M0 -20l15 5.6v11c0 9.4-6.4 15.9-15 18.6c-8.6-2.7-15-9.2-15-18.6v-11z"
          className="node-diagram__shield"
        />
        <path d="M-6 1l4.5 4.5L7 -4" className="node-diagram__check" />
      </g>
    </svg>
  );
}
