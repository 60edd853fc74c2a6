import { Navigate, useLocation } from 'react-router';

/**
 * /live (issue 34): the short address the projector shows, `?pin=` from its QR code. A student's
 * join page takes it from there; the student dashboard's guard sends a signed-out visitor to the
 * student login, which comes back to it, and a teacher to their own dashboard.
 */
export function Component() {
  const { search } = useLocation();
  return <Navigate to={`/dashboard/student/live${search}`} replace />;
}
