# The figures of results/paper and their -s selection, shared by make.sh and
# make-dctcp.sh (sourced; `prog` names the script in errors).
#   figs_only PROG FIGS   FIGS comma-separated: only those (exit 2 naming one
#                         that is not a figure)
#   want FIG              true when FIG is selected (all when none was given)
figs="fig5a fig5b fig6 fig7a fig7b fig8 fig12"
only=
figs_only() {
	only=",$2,"
	for f in $(echo "$2" | tr , ' '); do
		case " $figs " in *" $f "*) ;; *) echo "$1: -s: '$f' is not one of: $figs" >&2; exit 2 ;; esac
	done
}
want() { case $only in "" | *",$1,"*) return 0 ;; *) return 1 ;; esac; }
