set encoding utf8
set terminal pngcairo size 900,560 font ',11'
set output 'plot-job1.png'
set title 'fig7b: job job1, REACT vs baseline' noenhanced
set xlabel 'REACT on (job2)' noenhanced
set ylabel 'mean algbw improvement (%)' noenhanced
set grid ytics
set key outside right top noenhanced
set xzeroaxis lt -1
set xrange [-0.6:1.6]
set xtics ('false' 0, 'true' 1)
plot 'plot-job1.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-job1-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-job1.svg'
plot 'plot-job1.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-job1-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.'
