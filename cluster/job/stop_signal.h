/* SPDX-License-Identifier: MIT */
/* SIGTERM and SIGINT as a request to stop: a job ended by its scheduler (scancel, a requeue, the
 * time limit's first signal) or by Ctrl-C writes its checkpoint before it goes. A second signal
 * ends the process at once. */
#ifndef CARRERA_STOP_SIGNAL_H
#define CARRERA_STOP_SIGNAL_H

/* Installs the handlers (process-wide; calling it again changes nothing). */
void stop_signal_install(void);

/* The signal that asked the process to stop, or 0. */
int stop_signal_received(void);

#endif
