set terminal pngcairo size 900,560 font ',11'
set output 'plot-job2.png'
set title 'fig7a: job job2, REACT and the oracle vs baseline' noenhanced
set xlabel 'job2.react' noenhanced
set ylabel 'improvement of mean algorithm bandwidth (%)'
set grid ytics
set key top left noenhanced
set xzeroaxis lt -1
set xrange [-0.6:1.6]
set xtics ('false' 0, 'true' 1)
plot 'plot-job2.dat' index 0 using ($1+0.000):3 with points pt 7 ps 0.8 lc 1 title 'per seed', 'plot-job2-mean.dat' index 0 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean', 'plot-job2-oracle.dat' index 0 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-job2.svg'
plot 'plot-job2.dat' index 0 using ($1+0.000):3 with points pt 7 ps 0.8 lc 1 title 'per seed', 'plot-job2-mean.dat' index 0 using ($1+0.000):3 with linespoints pt 5 ps 1.4 lw 2 lc 1 title 'mean', 'plot-job2-oracle.dat' index 0 using ($1+0.000):3 with linespoints pt 4 ps 1.4 lw 2 dt 2 lc 1 title 'oracle mean'
