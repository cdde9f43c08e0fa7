import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import './not-found.css';

/** spec 02 §2 "Not-found page". */
export function NotFoundRoute() {
  return (
    <div className="container page not-found">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="muted">The page you are looking for does not exist or has moved.</p>
      <Link href={paths.home} className={buttonClass({ variant: 'primary' })}>
        Back to Home
      </Link>
    </div>
  );
}
