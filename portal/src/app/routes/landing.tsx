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

/** spec 01 §2 "Landing page". */
export function LandingRoute() {
  const { user } = useSession();

  const heroActions = !user ? (
    <SignUpButtons clientLabel="Get Started as Client" />
  ) : user.userType === 'client' ? (
    <Link href={paths.servers} className={buttonClass({ size: 'lg' })}>
      Browse Servers
    </Link>
  ) : (
    <Link href={paths.nodeDashboard} className={buttonClass({ size: 'lg' })}>
      Manage My Servers
    </Link>
  );

  // spec 01 §2: 'Go to Dashboard' leads clients to /servers and nodes to /node-dashboard.
  const finalActions = user ? (
    <Link
      href={user.userType === 'client' ? paths.servers : paths.nodeDashboard}
      className={buttonClass({ size: 'lg' })}
    >
      Go to Dashboard
    </Link>
  ) : (
    <SignUpButtons clientLabel="Sign Up as Client" />
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

/** The two sign-up calls to action of a signed-out visitor (spec 01 §2 "Landing page"). */
function SignUpButtons({ clientLabel }: { clientLabel: string }) {
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
        Become a Node Operator
      </Button>
    </>
  );
}
