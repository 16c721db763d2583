set terminal pngcairo size 900,560 font ',11'
set output 'plot-tree.png'
set title 'fig8: job tree, REACT and the oracle vs baseline' noenhanced
set xlabel 'rate' noenhanced
set ylabel 'improvement of mean algorithm bandwidth (%)'
set grid ytics
set key top left noenhanced
set xzeroaxis lt -1
set xrange [-0.6:2.6]
set xtics ('30Gbps' 0, '50Gbps' 1, '80Gbps' 2)
plot 'plot-tree.dat' index 0 using ($1-0.200):3 with points pt 7 ps 0.8 lc 1 title 'count = 4', 'plot-tree-mean.dat' index 0 using ($1-0.200):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean, 4', 'plot-tree-oracle.dat' index 0 using ($1-0.200):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean, 4', \
     'plot-tree.dat' index 1 using ($1+0.000):3 with points pt 7 ps 0.8 lc 2 title 'count = 16', 'plot-tree-mean.dat' index 1 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 2 title 'mean, 16', 'plot-tree-oracle.dat' index 1 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 2 title 'oracle mean, 16', \
     'plot-tree.dat' index 2 using ($1+0.200):3 with points pt 7 ps 0.8 lc 3 title 'count = 64', 'plot-tree-mean.dat' index 2 using ($1+0.200):3 with linespoints pt 5 ps 1.4 lw 2 lc 3 title 'mean, 64', 'plot-tree-oracle.dat' index 2 using ($1+0.200):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 3 title 'oracle mean, 64'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-tree.svg'
plot 'plot-tree.dat' index 0 using ($1-0.200):3 with points pt 7 ps 0.8 lc 1 title 'count = 4', 'plot-tree-mean.dat' index 0 using ($1-0.200):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean, 4', 'plot-tree-oracle.dat' index 0 using ($1-0.200):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean, 4', \
     'plot-tree.dat' index 1 using ($1+0.000):3 with points pt 7 ps 0.8 lc 2 title 'count = 16', 'plot-tree-mean.dat' index 1 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 2 title 'mean, 16', 'plot-tree-oracle.dat' index 1 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 2 title 'oracle mean, 16', \
     'plot-tree.dat' index 2 using ($1+0.200):3 with points pt 7 ps 0.8 lc 3 title 'count = 64', 'plot-tree-mean.dat' index 2 using ($1+0.200):3 with linespoints pt 5 ps 1.4 lw 2 lc 3 title 'mean, 64', 'plot-tree-oracle.dat' index 2 using ($1+0.200):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 3 title 'oracle mean, 64'
