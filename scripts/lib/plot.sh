# scripts/lib/plot.sh: drawing with gnuplot. Sourced after base.sh by the commands that draw
# (plot, ndr, sweep), never run. The plot files, one per figure, are in gnuplot/ beside this
# file; each loads gnuplot/style.gp for the looks they share. The tables never depend on the
# plots: without gnuplot, one line says how to get it and every table is still written.

GP_DIR=$LIB/gnuplot

# gnuplot_found: GNUPLOT (gnuplot) can be run; if not, one line (once) says how to get it, and
# status 1: the tables never depend on the plots. Sets GP_PNG, the PNG terminal (pngcairo, else png).
gnuplot_found() {
	GNUPLOT=${GNUPLOT:-gnuplot}
	if ! command -v "$GNUPLOT" >/dev/null 2>&1; then
		[ -n "${GP_SAID:-}" ] ||
			echo "$PROG: no gnuplot, so no plots (the tables are complete); install it with: apt-get install gnuplot-nox" >&2
		GP_SAID=1
		return 1
	fi
	if [ -z "${GP_PNG:-}" ]; then
		if echo 'set terminal pngcairo' | "$GNUPLOT" >/dev/null 2>&1; then GP_PNG=pngcairo; else GP_PNG=png; fi
	fi
}
# gp_str TEXT: TEXT as a gnuplot single-quoted string
gp_str() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
# plot_draw DIR NAME GPFILE DATAFILE SUBTITLE [SETTINGS]: DIR/NAME.png and .svg from
# GP_DIR/GPFILE, which reads the gnuplot variables dir (GP_DIR), term, out, datafile and subtitle
# (and SETTINGS, more gnuplot statements). Each image is drawn to a temporary name and renamed, so a
# redraw never leaves half a file. Without gnuplot, status 0 (gnuplot_found says so); status 1
# when gnuplot fails, with its message.
plot_draw() {
	gnuplot_found || return 0
	for pd_fmt in png svg; do
		if [ $pd_fmt = png ]; then pd_term=$GP_PNG; else pd_term=svg; fi
		pd_tmp=$1/.$2.$$.tmp.$pd_fmt
		if pd_err=$("$GNUPLOT" -e "dir=$(gp_str "$GP_DIR"); term='$pd_term'; out=$(gp_str "$pd_tmp"); datafile=$(gp_str "$4"); subtitle=$(gp_str "$5"); ${6:-}" \
			"$GP_DIR/$3" 2>&1) && [ -s "$pd_tmp" ]; then
			mv -f "$pd_tmp" "$1/$2.$pd_fmt"
		else
			rm -f "$pd_tmp"
			echo "$PROG: gnuplot failed on $2.$pd_fmt: $(printf '%s\n' "$pd_err" | tail -n 3)" >&2
			return 1
		fi
	done
}
