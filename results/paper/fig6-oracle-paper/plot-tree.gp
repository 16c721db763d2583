set terminal pngcairo size 900,560 font ',11'
set output 'plot-tree.png'
set title 'fig6: job tree, REACT and the oracle vs baseline' noenhanced
set xlabel 'shared' noenhanced
set ylabel 'improvement of mean algorithm bandwidth (%)'
set grid ytics
set key top left noenhanced
set xzeroaxis lt -1
set xrange [-0.6:3.6]
set xtics ('0' 0, '1' 1, '2' 2, '3' 3)
plot 'plot-tree.dat' index 0 using ($1+0.000):3 with points pt 7 ps 0.8 lc 1 title 'per seed', 'plot-tree-mean.dat' index 0 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean', 'plot-tree-oracle.dat' index 0 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-tree.svg'
plot 'plot-tree.dat' index 0 using ($1+0.000):3 with points pt 7 ps 0.8 lc 1 title 'per seed', 'plot-tree-mean.dat' index 0 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean', 'plot-tree-oracle.dat' index 0 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean'
