set encoding utf8
set terminal pngcairo size 900,560 font ',11'
set output 'plot-tree.png'
set title 'fig8: job tree, REACT and the oracle vs baseline' noenhanced
set xlabel 'degraded link rate' noenhanced
set ylabel 'mean algbw improvement (%)' noenhanced
set grid ytics
set key outside right top noenhanced
set xzeroaxis lt -1
set xrange [-0.6:1.6]
set xtics ('30Gbps' 0, '50Gbps' 1)
plot 'plot-tree.dat' index 0 using ($1-0.200):3 with points pt 7 ps 0.8 lc 1 title 'count = 4', \
     'plot-tree-mean.dat' index 0 using ($1-0.100):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e., count = 4', \
     'plot-tree.dat' index 1 using ($1+0.100):3 with points pt 7 ps 0.8 lc 2 title 'count = 16', \
     'plot-tree-mean.dat' index 1 using ($1+0.200):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 2 title 'REACT mean ± s.e., count = 16', \
     'plot-tree-mean.dat' index 2 using ($1-0.100):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 1 title 'oracle mean ± s.e., count = 4', \
     'plot-tree-mean.dat' index 3 using ($1+0.200):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 2 title 'oracle mean ± s.e., count = 16'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-tree.svg'
plot 'plot-tree.dat' index 0 using ($1-0.200):3 with points pt 7 ps 0.8 lc 1 title 'count = 4', \
     'plot-tree-mean.dat' index 0 using ($1-0.100):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e., count = 4', \
     'plot-tree.dat' index 1 using ($1+0.100):3 with points pt 7 ps 0.8 lc 2 title 'count = 16', \
     'plot-tree-mean.dat' index 1 using ($1+0.200):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 2 title 'REACT mean ± s.e., count = 16', \
     'plot-tree-mean.dat' index 2 using ($1-0.100):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 1 title 'oracle mean ± s.e., count = 4', \
     'plot-tree-mean.dat' index 3 using ($1+0.200):3:4 with yerrorlines pt 4 ps 1.2 lw 2 dt 2 lc 2 title 'oracle mean ± s.e., count = 16'
