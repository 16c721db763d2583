set encoding utf8
set terminal pngcairo size 900,560 font ',11'
set output 'plot-ring.png'
set title 'fig6: job ring, REACT vs baseline' noenhanced
set xlabel 'hosts shared with the other job' noenhanced
set ylabel 'mean algbw improvement (%)' noenhanced
set grid ytics
set key outside right top noenhanced
set xzeroaxis lt -1
set xrange [-0.6:8.6]
set xtics ('0' 0, '1' 1, '2' 2, '3' 3, '4' 4, '5' 5, '6' 6, '7' 7, '8' 8)
plot 'plot-ring.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-ring-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.'
set terminal svg size 900,560 font 'sans,11'
set output 'plot-ring.svg'
plot 'plot-ring.dat' index 0 using ($1-0.050):3 with points pt 7 ps 0.8 lc 1 title 'REACT per seed', \
     'plot-ring-mean.dat' index 0 using ($1+0.050):3:4 with yerrorlines pt 5 ps 1.2 lw 2 dt 1 lc 1 title 'REACT mean ± s.e.'
