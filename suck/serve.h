/* serve: --serve, runs one after another on the same sockets (serve.c). */
#ifndef SERVE_H
#define SERVE_H

struct rx_shared;

/* Between runs, with no thread running: the run just reported joins the finished ones (the
 * ring rx_finished looks in), and everything else the threads share is reset for the next. */
void serve_next(struct rx_shared *sh);

#endif
