import { Route, Switch } from 'wouter';
import { paths } from '../config/paths';
import { ClientDashboardRoute } from './routes/client-dashboard';
import { DocumentationRoute } from './routes/documentation';
import { EconomicsRoute } from './routes/economics';
import { FaqsRoute } from './routes/faqs';
import { LandingRoute } from './routes/landing';
import { NodeDashboardRoute } from './routes/node-dashboard';
import { NotFoundRoute } from './routes/not-found';
import { OurViewRoute } from './routes/our-view';
import { PrivacyPolicyRoute } from './routes/privacy-policy';
import { SecurityRoute } from './routes/security';
import { ServersRoute } from './routes/servers';
import { SupportRoute } from './routes/support';
import { TermsRoute } from './routes/terms';

/** spec 01 §2 and spec 02 §2: every route of the app, then the catch-all not-found page. */
export function AppRouter() {
  return (
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
  );
}
