import { Link } from 'wouter';
import { Button, buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { openAuth } from '../../features/auth/store';
import { FinalCta } from '../../features/landing/components/final-cta';
import { Hero } from '../../features/landing/components/hero';
import { HowItWorks } from '../../features/landing/components/how-it-works';
import { LaunchBanner } from '../../features/landing/components/launch-banner';
import { SecurityFeatures } from '../../features/landing/components/security-features';
import { useSession } from '../../features/session/store';
import { useT } from '../../lib/i18n/i18n';

/** docs/product/screens.md#the-shell-and-the-market-screens "Landing page". */
export function LandingRoute() {
  const { t } = useT();
  const { user } = useSession();

  const heroActions = !user ? (
    <SignUpButtons clientLabel={t('landing.cta.startClient')} />
  ) : user.userType === 'client' ? (
    <Link href={paths.servers} className={buttonClass({ size: 'lg' })}>
      {t('landing.cta.browseServers')}
    </Link>
  ) : (
    <Link href={paths.nodeDashboard} className={buttonClass({ size: 'lg' })}>
      {t('landing.cta.manageServers')}
    </Link>
  );

  // docs/product/screens.md#the-shell-and-the-market-screens: 'Go to Dashboard' leads clients to /servers and nodes to /node-dashboard.
  const finalActions = user ? (
    <Link
      href={user.userType === 'client' ? paths.servers : paths.nodeDashboard}
      className={buttonClass({ size: 'lg' })}
    >
      {t('landing.cta.goToDashboard')}
    </Link>
  ) : (
    <SignUpButtons clientLabel={t('landing.cta.signUpClient')} />
  );

  return (
    <div className="landing">
      <LaunchBanner />
      <Hero actions={heroActions} />
      <HowItWorks />
      <SecurityFeatures />
      <FinalCta actions={finalActions} />
    </div>
  );
}

/** The two sign-up calls to action of a signed-out visitor (docs/product/screens.md#the-shell-and-the-market-screens "Landing page"). */
function SignUpButtons({ clientLabel }: { clientLabel: string }) {
  const { t } = useT();
  return (
    <>
      <Button
        variant="primary"
        size="lg"
        onClick={() => openAuth({ mode: 'register', userType: 'client' })}
      >
        {clientLabel}
      </Button>
      <Button
        variant="secondary"
        size="lg"
        onClick={() => openAuth({ mode: 'register', userType: 'node' })}
      >
        {t('landing.cta.becomeOperator')}
      </Button>
    </>
  );
}
