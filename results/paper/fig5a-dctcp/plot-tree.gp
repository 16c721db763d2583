set encoding utf8
set terminal pngcairo size 900,560 font ',11'
set output 'plot-tree.png'
set title 'fig5a: job tree, REACT vs baseline' noenhanced
set xlabel 'congested host pairs' noenhanced
set ylabel 'mean algbw improvement (%)' noenhanced
set grid ytics
set key outside right top noenhanced
set xzeroaxis lt -1
set xrange [-0.6:7.6]
set xtics ('1' 0, '2' 1, '3' 2, '4' 3, '5' 4, '6' 5, '7' 6, '8' 7)
plot 'plot-tree.dat' index 0 using ($1-0.233):3 with points pt 7 ps 0.8 lc 1 title 'p = 1', \
     'plot-tree-mean.dat' index 0 using ($1-0.167):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e., p = 1', \
     'plot-tree.dat' index 1 using ($1-0.033):3 with points pt 7 ps 0.8 lc 2 title 'p = 2', \
     'plot-tree-mean.dat' index 1 using ($1+0.033):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 2 title 'REACT mean ± s.e., p = 2', \
     'plot-tree.dat' index 2 using ($1+0.167):3 with points pt 7 ps 0.8 lc 3 title 'p = 4', \
     'plot-tree-mean.dat' index 2 using ($1+0.233):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 3 title 'REACT mean ± s.e., p = 4'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-tree.svg'
plot 'plot-tree.dat' index 0 using ($1-0.233):3 with points pt 7 ps 0.8 lc 1 title 'p = 1', \
     'plot-tree-mean.dat' index 0 using ($1-0.167):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e., p = 1', \
     'plot-tree.dat' index 1 using ($1-0.033):3 with points pt 7 ps 0.8 lc 2 title 'p = 2', \
     'plot-tree-mean.dat' index 1 using ($1+0.033):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 2 title 'REACT mean ± s.e., p = 2', \
     'plot-tree.dat' index 2 using ($1+0.167):3 with points pt 7 ps 0.8 lc 3 title 'p = 4', \
     'plot-tree-mean.dat' index 2 using ($1+0.233):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 3 title 'REACT mean ± s.e., p = 4'
