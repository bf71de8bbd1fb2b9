import { Injectable } from '@nestjs/common';

/** Set when SIGTERM arrives, so that readiness fails while in-flight requests finish. */
@Injectable()
export class ShutdownState {
  shuttingDown = false;
}
