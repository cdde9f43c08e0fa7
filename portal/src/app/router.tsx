import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { paths } from '../config/paths';
import { NotFoundRoute } from './routes/not-found';

/**
 * A route's component from its own chunk, fetched the first time the route renders, so a visit
 * downloads the shell and the page it opens, not the whole app (docs/architecture.md, "Portal").
 */
function page<Name extends string>(load: () => Promise<Record<Name, () => ReactNode>>, name: Name) {
  return lazy(() => load().then((module) => ({ default: module[name] })));
}

const LandingRoute = page(() => import('./routes/landing'), 'LandingRoute');
const ServersRoute = page(() => import('./routes/servers'), 'ServersRoute');
const SecurityRoute = page(() => import('./routes/security'), 'SecurityRoute');
const OurViewRoute = page(() => import('./routes/our-view'), 'OurViewRoute');
const EconomicsRoute = page(() => import('./routes/economics'), 'EconomicsRoute');
const DocumentationRoute = page(() => import('./routes/documentation'), 'DocumentationRoute');
const FaqsRoute = page(() => import('./routes/faqs'), 'FaqsRoute');
const SupportRoute = page(() => import('./routes/support'), 'SupportRoute');
const PrivacyPolicyRoute = page(() => import('./routes/privacy-policy'), 'PrivacyPolicyRoute');
const TermsRoute = page(() => import('./routes/terms'), 'TermsRoute');
const ClientDashboardRoute = page(
  () => import('./routes/client-dashboard'),
  'ClientDashboardRoute',
);
const NodeDashboardRoute = page(() => import('./routes/node-dashboard'), 'NodeDashboardRoute');

/**
 * While a page's chunk loads: the placeholder index.html shows before the app starts (its styles
 * live there), wordless, so nothing flashes between the two.
 */
function PageLoading() {
  return (
    <div className="boot__page" aria-busy="true">
      <div className="boot__line boot__line--eyebrow" />
      <div className="boot__line boot__line--title" />
      <div className="boot__line" />
      <div className="boot__cards">
        <div className="boot__card" />
        <div className="boot__card" />
        <div className="boot__card" />
      </div>
    </div>
  );
}

/** docs/product/screens.md#the-shell-and-the-market-screens and docs/product/screens.md#dashboards-and-information-pages: every route of the app, then the catch-all not-found page. */
export function AppRouter() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Switch>
        <Route path={paths.home} component={LandingRoute} />
        <Route path={paths.servers} component={ServersRoute} />
        <Route path={paths.security} component={SecurityRoute} />
        <Route path={paths.ourView} component={OurViewRoute} />
        <Route path={paths.economics} component={EconomicsRoute} />
        <Route path={paths.documentation} component={DocumentationRoute} />
        <Route path={paths.faqs} component={FaqsRoute} />
        <Route path={paths.support} component={SupportRoute} />
        <Route path={paths.privacyPolicy} component={PrivacyPolicyRoute} />
        <Route path={paths.terms} component={TermsRoute} />
        <Route path={paths.clientDashboard} component={ClientDashboardRoute} />
        <Route path={paths.nodeDashboard} component={NodeDashboardRoute} />
        <Route component={NotFoundRoute} />
      </Switch>
    </Suspense>
  );
}
