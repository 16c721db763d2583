set encoding utf8
set terminal pngcairo size 900,560 font ',11'
set output 'plot-tree.png'
set title 'fig6: job tree, REACT and the oracle vs baseline' noenhanced
set xlabel 'hosts shared with the other job' noenhanced
set ylabel 'mean algbw improvement (%)' noenhanced
set grid ytics
set key outside right top noenhanced
set xzeroaxis lt -1
set xrange [-0.6:3.6]
set xtics ('0' 0, '1' 1, '2' 2, '3' 3)
plot 'plot-tree.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-tree-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.', \
     'plot-tree-mean.dat' index 1 using ($1+0.050):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 1 title 'oracle mean ± s.e.'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-tree.svg'
plot 'plot-tree.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-tree-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.', \
     'plot-tree-mean.dat' index 1 using ($1+0.050):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 1 title 'oracle mean ± s.e.'
